//! A PostgreSQL database that cannot be reached is said once, in an operator's words (issue 61,
//! item 6): where it was looked for (host, port, database, user — never the password), the cause,
//! and what to check; a `database_url` that is not PostgreSQL's is refused before anything is
//! tried.

use shvedka_storage::{PgStore, StoreError};
use testkit::postgres::TempPostgres;

async fn refusal(url: &str) -> String {
    match PgStore::connect(url).await {
        Err(e @ StoreError::Unreachable(_)) => e.to_string(),
        Err(e) => panic!("refused for another reason: {e:?}"),
        Ok(_) => panic!("{url} was opened"),
    }
}

#[tokio::test]
async fn a_url_of_another_database_is_refused_before_anything_is_tried() {
    let said = refusal("mysql://shvedka:s3cret@127.0.0.1:3306/shvedka").await;
    assert!(said.starts_with("database_url is mysql://…: only PostgreSQL is supported"), "{said}");
    assert!(!said.contains("s3cret"), "never the password: {said}");
    assert!(refusal("127.0.0.1:5432/shvedka").await.contains("a URL without a scheme"));
}

#[tokio::test]
async fn a_port_nobody_listens_on_is_named_with_the_cause_once() {
    // A port that was free a moment ago: nothing listens on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let said = refusal(&format!("postgres://shvedka:s3cret@127.0.0.1:{port}/night")).await;
    assert!(
        said.starts_with(&format!(
            "cannot reach PostgreSQL at 127.0.0.1:{port} (database \"night\", user \"shvedka\")"
        )),
        "{said}"
    );
    assert_eq!(said.matches("refused").count(), 1, "the cause once: {said}");
    assert!(said.contains("is PostgreSQL running there"), "what to check: {said}");
    assert!(!said.contains("s3cret") && !said.contains("line"), "{said}");
}

#[tokio::test]
async fn a_database_that_does_not_exist_is_said_so() {
    let pg = TempPostgres::start();
    // The same server, another database: the path after the authority, before any `?`.
    let authority = pg.url.find("://").unwrap() + 3;
    let path = authority + pg.url[authority..].find('/').unwrap();
    let end = pg.url[path..].find('?').map_or(pg.url.len(), |q| path + q);
    let url = format!("{}/no_such_night{}", &pg.url[..path], &pg.url[end..]);
    let said = refusal(&url).await;
    assert!(
        said.contains("database \"no_such_night\"") && said.contains("there is no such database"),
        "{said}"
    );
}
