//! The one way the bot serves HTTP: hyper's HTTP/1 with a timer, a bounded number of
//! connections, one request each, a small head read in limited time, and a whole connection
//! ended after a limit whatever it does. `/metrics` and the public pages both serve through it,
//! so nothing a client does (a slow head, an idle socket, a flood of connections) holds the bot.

use axum::Router;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How hard a server holds its clients.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections served at once; one more is closed as soon as it is accepted.
    pub connections: usize,
    /// How long a client may take to send a request's head.
    pub head_time: Duration,
    /// How long a connection may last, whatever it does.
    pub connection_time: Duration,
    /// The most bytes a request's head may take.
    pub head_bytes: usize,
    /// Connections one address may hold at once, so that one client cannot take every slot.
    pub per_client: usize,
}

/// Serves `router` on `listener` until the process ends, within `limits`.
pub async fn serve(listener: tokio::net::TcpListener, router: Router, limits: Limits) {
    let service = hyper_util::service::TowerToHyperService::new(router);
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.connections));
    let clients: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    loop {
        let (stream, from) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file handles, say: wait a little rather than spin.
                tracing::warn!(error = %e, "an HTTP connection could not be accepted");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(client) = Client::admit(&clients, client_of(from.ip()), limits.per_client) else {
            drop(stream);
            continue;
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = service.clone();
        tokio::spawn(async move {
            let _held = (slot, client);
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.head_time)
                .max_buf_size(limits.head_bytes.max(8192))
                .keep_alive(false)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let _ = tokio::time::timeout(limits.connection_time, connection).await;
        });
    }
}

/// METRICS_ADDR, WEB_ADDR or `--addr`: a port alone is served on the loopback address, so that
/// only this host reads it unless an address says otherwise.
pub fn address(text: &str) -> Option<std::net::SocketAddr> {
    if let Ok(port) = text.parse::<u16>() {
        return Some(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse().ok()
}

/// One connection counted against its address, until dropped.
struct Client {
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl Client {
    /// Counts a connection from `ip`, unless it holds `most` already.
    fn admit(
        clients: &Arc<Mutex<HashMap<IpAddr, usize>>>,
        ip: IpAddr,
        most: usize,
    ) -> Option<Client> {
        let mut held = clients.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(ip).or_insert(0);
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Client {
            clients: clients.clone(),
            ip,
        })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let mut held = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

/// Whom a connection is counted against: an IPv4 address, or an IPv6 address's /64 (what one
/// host is usually given, so that it cannot take a new address for each connection).
fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}
