//! The fake Discord's REST API over TLS, answering for discord.com: serenity's rate limiter
//! always asks `https://discord.com/api/v10/…` (it ignores a proxy address), so the bot's
//! client resolves discord.com to the fake (src/discord/shared/rest.rs), and the fake shows a
//! certificate for discord.com signed by a test-only authority the bot is told to trust
//! (tests/fixtures/fake_discord_tls: its key was thrown away once the two certificates were
//! made, so it can sign nothing else).

use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::server::TlsStream;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/fake_discord_tls"
);

/// The authority the bot trusts for the fake (DISCORD_API_CA).
pub const CA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/fake_discord_tls/ca.pem"
);

/// Accepts TLS connections as discord.com. Each handshake runs in a task of its own, so a
/// client that stalls in one (a process killed mid-handshake) holds up no other.
pub struct TlsListener {
    local: std::net::SocketAddr,
    ready: tokio::sync::mpsc::Receiver<(TlsStream<TcpStream>, std::net::SocketAddr)>,
}

impl TlsListener {
    pub fn new(tcp: TcpListener) -> TlsListener {
        let certs = CertificateDer::pem_file_iter(format!("{DIR}/discord.com.pem"))
            .expect("the fake's certificate")
            .collect::<Result<Vec<_>, _>>()
            .expect("the fake's certificate reads");
        let key = PrivateKeyDer::from_pem_file(format!("{DIR}/discord.com.key"))
            .expect("the fake's key reads");
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .expect("the fake's certificate and key fit");
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let local = tcp.local_addr().expect("the listener has an address");
        let (done, ready) = tokio::sync::mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                let Ok((stream, addr)) = tcp.accept().await else {
                    continue;
                };
                // Answers go out at once, as Discord's do: without this, an answer written in
                // two pieces waits for the client's delayed acknowledgement (tens of ms).
                let _ = stream.set_nodelay(true);
                let (acceptor, done) = (acceptor.clone(), done.clone());
                tokio::spawn(async move {
                    let handshake = acceptor.accept(stream);
                    let timeout = std::time::Duration::from_secs(10);
                    if let Ok(Ok(tls)) = tokio::time::timeout(timeout, handshake).await {
                        let _ = done.send((tls, addr)).await;
                    }
                });
            }
        });
        TlsListener { local, ready }
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(accepted) => accepted,
            // The accepting task is gone (the runtime is shutting down): nothing comes.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}
