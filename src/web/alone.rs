//! `deckmate web --db FILE --addr ADDR`: the public pages of a database served alone, without
//! the bot: a console league's, or a copy of the bot's database. Its servers with pages on are
//! served as the bot would, and the console's own leagues under `/s/local`.

use crate::store::Store;
use crate::table::{Table, TableHandle};
use std::net::SocketAddr;
use std::path::Path;

/// Serves `db`'s pages at `address` until the process is stopped (Ctrl-C); `ready` is told the
/// address once it listens (the port chosen, when `address` gave 0).
pub async fn serve_database(
    db: &Path,
    address: SocketAddr,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let url = db.to_str().filter(|d| crate::store::is_postgres_url(d));
    if url.is_none() && !db.exists() {
        return Err(format!("there is no database at {}", db.display()));
    }
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let table = TableHandle::spawn(Table::new(store));
    let address = super::site::start(address, table, true)
        .await
        .map_err(|e| e.to_string())?;
    ready(address);
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| format!("cannot wait for Ctrl-C: {e}"))
}
