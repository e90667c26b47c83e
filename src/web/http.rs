//! The one way the bot serves HTTP: hyper's HTTP/1 with a timer, a bounded number of
//! connections, one request each, a small head read in limited time, and a whole connection
//! ended after a limit whatever it does. `/metrics` and the public pages both serve through it,
//! so nothing a client does (a slow head, an idle socket, a flood of connections) holds the bot.

use axum::Router;
use std::sync::Arc;
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
}

/// Serves `router` on `listener` until the process ends, within `limits`.
pub async fn serve(listener: tokio::net::TcpListener, router: Router, limits: Limits) {
    let service = hyper_util::service::TowerToHyperService::new(router);
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.connections));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file handles, say: wait a little rather than spin.
                tracing::warn!(error = %e, "an HTTP connection could not be accepted");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = service.clone();
        tokio::spawn(async move {
            let _slot = slot;
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
