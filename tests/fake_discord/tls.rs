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

/// Accepts TLS connections as discord.com.
pub struct TlsListener {
    tcp: TcpListener,
    acceptor: TlsAcceptor,
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
        TlsListener {
            tcp,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        }
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}
