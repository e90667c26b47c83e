//! Output for command lines that may be piped into a reader that stops early
//! (`deckmate league L standings | head`): once the reader has gone, the rest is dropped
//! quietly instead of failing the command with "Broken pipe".

use std::io::{ErrorKind, Result, Write};

/// A writer that treats a closed pipe as the end of interest in the output.
pub struct QuietPipe<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> QuietPipe<W> {
    pub fn new(inner: W) -> Self {
        QuietPipe {
            inner,
            closed: false,
        }
    }
}

impl<W: Write> Write for QuietPipe<W> {
    fn write(&mut self, buf: &[u8]) -> Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}
