//! Text, CSV, HTML and pairing-sheet exports.

mod common;

use common::{data, round_robin_of_four, started};
use shvedka_tournament::{ColourChoice, Format, Language, SeatingChoice, TeamNo, Tournament};

/// Writes the actual export next to the expected one when `BLESS` is set, then compares.
fn check(name: &str, actual: &str) {
    if std::env::var_os("BLESS").is_some() {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, actual).unwrap();
    }
    assert_eq!(actual, data(name), "tests/data/{name}");
}

/// Round robin of four with renamed teams, one with a comma and quotes in its name.
fn named() -> Tournament {
    let mut t = Tournament::new("MGIMO, 1 April", "mgimo-2017", "3+2", Format::RoundRobin).unwrap();
    t.register("Alpha", ["Anna", "Artem"]).unwrap();
    t.register("Bravo, \"B\"", ["Boris", "Bella"]).unwrap();
    t.register("Charlie", ["Chen", "Clara"]).unwrap();
    t.register("Delta", ["Dmitri", "Daria"]).unwrap();
    t.start().unwrap();
    // Replay the results of the common round robin of four onto these teams.
    let source = round_robin_of_four();
    for round in source.rounds() {
        t.pair_next_round(0, 1).unwrap();
        for (table, p) in round.pairings() {
            for (game, g) in (1..).zip(&p.games) {
                t.record_result(round.number, table, game, g.result.clone().unwrap()).unwrap();
            }
        }
    }
    t
}

#[test]
fn standings_and_crosstable_as_aligned_text() {
    let t = named();
    check("standings.txt", &t.standings().to_text());
    check("crosstable.txt", &t.crosstable().to_text());
}

#[test]
fn csv_quotes_names_with_commas_and_quotes_rfc_4180() {
    let t = named();
    let csv = t.standings().to_csv();
    check("standings.csv", &csv);
    assert!(csv.contains("\r\n2,\"Bravo, \"\"B\"\"\",3.5,"), "{csv}");
    assert!(
        csv.starts_with("Rank,Team,Points,Direct encounter,Buchholz,Sonneborn-Berger,Wins,Withdrawn\r\n")
    );
    let cross = t.crosstable().to_csv();
    check("crosstable.csv", &cross);
    assert!(cross.contains("\r\n2,\"Bravo, \"\"B\"\"\",0.5,,2,1,0,3.5\r\n"), "{cross}");
}

#[test]
fn html_page_escapes_names_and_is_self_contained() {
    let mut t = Tournament::new("Night <b>&</b>", "mgimo-2017", "3+2", Format::Swiss { rounds: 3 }).unwrap();
    t.register("<script>&\"", ["O'Neil", "<i>x</i>"]).unwrap();
    t.register("Plain", ["A", "B"]).unwrap();
    t.start().unwrap();
    t.pair_next_round(0, 1).unwrap();
    let html = t.to_html();
    assert!(html.contains("&lt;script&gt;&amp;&quot;"), "{html}");
    assert!(!html.contains("<script"), "no script, escaped or not");
    assert!(html.contains("<h1>Night &lt;b&gt;&amp;&lt;/b&gt;</h1>"));
    assert!(html.contains("Round 1 of 3"));
    assert!(html.contains("<style>") && html.contains("font-size:28px"));
    for external in ["http:", "https:", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(external), "external resource {external}");
    }
    assert!(html.contains("<h2>Standings</h2>") && html.contains("<h2>Crosstable</h2>"));
    check("page.html", &named().to_html());
}

#[test]
fn pairing_sheet_shows_seats_or_pending_choices() {
    let mut t = started(Format::RoundRobin, 5);
    // Paired at 18:00 UTC with 15 minutes to choose; the hall is at UTC+3.
    let now = (18 * 60) * 60_000;
    t.pair_next_round(now, 15 * 60_000).unwrap();
    // Berger round 1 for five: 1 has the bye (it meets the dummy sixth seat), 2–5 and 3–4.
    let (table, p) = t.round(1).unwrap().pairings().next().unwrap();
    assert_eq!((p.first, p.second), (TeamNo(2), TeamNo(5)));
    let (first, second) = (p.first, p.second);
    t.choose_seating(now, 1, first, 1, SeatingChoice::Crossed).unwrap();
    t.choose_colours(now, 1, second, 1, ColourChoice::WhiteOnB).unwrap();
    assert_eq!(table, 1);
    let sheet = t.pairing_sheet(1, 180).unwrap();
    check("sheet_round1.txt", &sheet);
    assert!(sheet.contains("choices pending (due 21:15)"));
    assert!(sheet.ends_with("\nBye: Team 1\n"));
    // Issue 57: a game decided over the board without its choices entered is no longer pending.
    let result = shvedka_tournament::GameResult::new(
        shvedka_tournament::Outcome::Draw,
        shvedka_tournament::ResultSource::OverTheBoard,
        "agreed",
    );
    t.record_result(1, 2, 1, result).unwrap();
    let sheet = t.pairing_sheet(1, 180).unwrap();
    let table_2 = &sheet[sheet.find("Table 2:").unwrap()..];
    assert!(!table_2.lines().nth(1).unwrap().contains("pending"), "{sheet}");
    assert_eq!(sheet.matches("choices pending").count(), 2, "table 2's game 2 still waits: {sheet}");
}

/// Issue 31: the exports a person reads come in the director's language. In Russian the page and
/// the sheet carry the Russian words (plurals too) and none of the English labels; names stay
/// as the teams wrote them. CSV keeps its English headers (data for programs).
#[test]
fn exports_a_person_reads_speak_the_directors_language() {
    let english = ["Standings", "Crosstable", "Points", "Round ", "Rules ", "Team", "Buchholz", "Wins"];
    let mut t = Tournament::new("Осенний кубок", "mgimo-2017", "3+2", Format::Swiss { rounds: 3 }).unwrap();
    for (team, players) in
        [("Ладьи", ["Аня", "Борис"]), ("Кони", ["Вера", "Глеб"]), ("Слоны", ["Даша", "Егор"])]
    {
        t.register(team, players).unwrap();
    }
    let page = t.to_html_in(Language::Russian);
    assert!(page.contains("<html lang=\"ru\">") && page.contains("Регистрация: 3 команды"), "{page}");
    t.start().unwrap();
    t.pair_next_round(0, 60_000).unwrap();
    let page = t.to_html_in(Language::Russian);
    for words in ["Тур 1 из 3", "Турнирное положение", "Турнирная таблица", "Бухгольц", "Правила mgimo-2017"]
    {
        assert!(page.contains(words), "{words} in {page}");
    }
    for word in english {
        assert!(!page.contains(word), "no English {word:?} in the Russian page: {page}");
    }
    let standings = t.standings().to_text_in(Language::Russian);
    assert!(standings.starts_with("Место  Команда"), "{standings}");
    let sheet = t.pairing_sheet_in(1, 180, Language::Russian).unwrap();
    for words in
        ["Осенний кубок — тур 1 из 3: жеребьёвка", "Стол 1: ", "Партия 1: рассадку выбирает", "Без пары: "]
    {
        assert!(sheet.contains(words), "{words} in {sheet}");
    }
    assert!(sheet.contains("выбор ещё не сделан (срок 03:01)"), "{sheet}");
    for word in ["Table", "Game", "Bye", "pending", "Rules", "seating"] {
        assert!(!sheet.contains(word), "no English {word:?} in the Russian sheet: {sheet}");
    }
    // The English stays as it was.
    assert!(t.pairing_sheet(1, 180).unwrap().contains("Table 1: "));
    assert!(t.to_html().contains("Round 1 of 3"));
    assert!(t.standings().to_csv().starts_with("Rank,"), "CSV headers stay English");
}
