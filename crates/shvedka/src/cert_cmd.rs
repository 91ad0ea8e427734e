//! `shvedka cert`: the certificate and key that every node of a cluster serves (clients pin one
//! fingerprint and resume on any node), made by one command instead of openssl's: a self-signed
//! ECDSA P-256 certificate for the names given, written as `cert.pem` and `key.pem` (the key its
//! owner's alone), never over files already there, and its fingerprint printed for the clients.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::Failure;

/// `shvedka cert --name chess.example.org --out /etc/shvedka`.
#[derive(Debug, Args)]
pub(crate) struct CertArgs {
    /// A name (or address) the certificate is for; repeat for several.
    #[arg(long = "name", required = true)]
    names: Vec<String>,
    /// The directory to write cert.pem and key.pem into (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// Days it is valid.
    #[arg(long, default_value_t = 3650)]
    days: u32,
}

pub(crate) fn run(args: &CertArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let bad = |message: String| Failure { code: 2, message };
    if !(1..=36_500).contains(&args.days) {
        return Err(bad(format!("--days {}: 1 to 36500", args.days)).into());
    }
    let (cert, key) = (args.out.join("cert.pem"), args.out.join("key.pem"));
    for path in [&cert, &key] {
        if path.exists() {
            return Err(bad(format!(
                "{} exists: a certificate is never overwritten (remove it first)",
                path.display()
            ))
            .into());
        }
    }
    let (cert_pem, key_pem, fingerprint) = shvedka_server::self_signed(&args.names, args.days)
        .map_err(|e| bad(format!("cannot make a certificate for {:?}: {e:#}", args.names)))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| bad(format!("cannot create {}: {e}", args.out.display())))?;
    write_new(&key, key_pem.as_bytes(), 0o600)?;
    write_new(&cert, cert_pem.as_bytes(), 0o644)?;
    writeln!(
        out,
        "wrote {} and {} ({} days, for {})",
        cert.display(),
        key.display(),
        args.days,
        args.names.join(", ")
    )?;
    writeln!(out, "certificate sha256 {fingerprint}")?;
    writeln!(out, "on every node, above [cluster]: cert = {:?} and key = {:?}", cert, key)?;
    Ok(())
}

/// Writes a new file (never over one) with `mode`.
fn write_new(path: &std::path::Path, bytes: &[u8], mode: u32) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options
        .open(path)
        .map_err(|e| Failure { code: 2, message: format!("cannot write {}: {e}", path.display()) })?;
    file.write_all(bytes)?;
    Ok(())
}
