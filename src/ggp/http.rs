//! Just enough HTTP for the GGP protocol: one `POST` per connection, read
//! to its `Content-Length`, and one reply, `HTTP/1.0` with `Content-Type:
//! text/acl` and a `Content-Length`, then the connection closes.
//!
//! Game servers (GGP-Base's above all) send nothing else, so a general HTTP
//! crate would add a dependency and a thread pool for features never used;
//! these few hundred lines are std only. Anything else that arrives is an
//! [`HttpError`] that the server answers with a 4xx status, and a bad
//! request never stops the server: a method other than `POST` (405, refused
//! on its first line), no `Content-Length` or a `Transfer-Encoding` (411),
//! a malformed request line, header or length (400), headers past
//! [`MAX_HEAD`] (431), a body past the limit (413, refused before a byte of
//! it is read), a request not in whole within its deadlines (408).
//!
//! The deadlines are counted from the connection's acceptance and cover the
//! request in total ([`HEAD_TIMEOUT`] the headers, [`REQUEST_TIMEOUT`] the
//! body too), not each read, so a client trickling a byte at a time is cut
//! off as surely as one that sends nothing.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Headers are at most this long in all (GGP-Base sends about 150 bytes).
pub const MAX_HEAD: usize = 16 << 10;

/// The request line and headers must have arrived this long after the
/// connection was accepted: a game server sends them with the connection.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(3);

/// The whole request, body included, must have arrived this long after the
/// connection was accepted.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// A reply the client does not read for this long is given up.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// Bodies up to this size are read without drawing on [`Bodies`]: every
/// game of the corpus (the largest, duplicateStateLarge, has 68 KB of
/// rules) fits, and the bound on connections bounds what they hold.
pub const SMALL_BODY: usize = 128 << 10;

/// After refusing a request that was not read in full, what the client
/// still sends is read and dropped for this long, and at most this much.
const LINGER: Duration = Duration::from_millis(500);
const LINGER_BYTES: u64 = 1 << 20;

/// A request that is not one the protocol sends: its status and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpError {
    pub status: u16,
    pub message: String,
}

impl HttpError {
    pub fn bad(message: impl Into<String>) -> HttpError {
        HttpError { status: 400, message: message.into() }
    }

    fn new(status: u16, message: impl Into<String>) -> HttpError {
        HttpError { status, message: message.into() }
    }

    /// A read that failed: 408 if the deadline passed, else 400.
    fn reading(what: &str, e: &io::Error, timeout: Duration) -> HttpError {
        if e.kind() == io::ErrorKind::TimedOut {
            HttpError::new(408, format!("{what} did not arrive within {} s", timeout.as_secs()))
        } else {
            HttpError::bad(format!("{what} could not be read: {e}"))
        }
    }
}

/// The bytes of request bodies larger than [`SMALL_BODY`] that may be held
/// at once, over all connections: a body is admitted only if its whole
/// `Content-Length` fits in what is left, and gives it back when the request
/// has been read and parsed, so that clients declaring large bodies cannot
/// together hold more memory than one request of the limit would.
pub struct Bodies {
    left: AtomicUsize,
}

/// A share of [`Bodies`], given back when dropped.
pub struct Reserved<'a> {
    bodies: &'a Bodies,
    bytes: usize,
}

impl Bodies {
    pub fn new(total: usize) -> Bodies {
        Bodies { left: AtomicUsize::new(total) }
    }

    fn reserve(&self, bytes: usize) -> Option<Reserved<'_>> {
        self.left.fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| left.checked_sub(bytes)).ok()?;
        Some(Reserved { bodies: self, bytes })
    }
}

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        self.bodies.left.fetch_add(self.bytes, Ordering::AcqRel);
    }
}

/// A request's body, holding its share of [`Bodies`] while it lives.
pub struct Body<'a> {
    pub text: String,
    _reserved: Option<Reserved<'a>>,
}

/// What a request may be.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest body (the `input-size` limit).
    pub max_body: usize,
    pub head_timeout: Duration,
    pub request_timeout: Duration,
}

/// A stream read against a deadline: each read waits only for what is left
/// of the time, so the deadline bounds the request, not the gap between
/// two bytes.
struct Timed<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
    /// Set when a byte has been read.
    heard: &'a AtomicBool,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        match stream.read(buf) {
            Ok(n) => {
                if n > 0 {
                    self.heard.store(true, Ordering::Release);
                }
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Err(io::ErrorKind::TimedOut.into()),
            Err(e) => Err(e),
        }
    }
}

/// Reads one request from `stream`, accepted at `accepted`, and returns its
/// body; nothing past the limits is read or held. `heard` is set when the
/// first bytes arrive.
pub fn read_request<'b>(
    stream: &TcpStream,
    accepted: Instant,
    heard: &AtomicBool,
    limits: &Limits,
    bodies: &'b Bodies,
) -> Result<Body<'b>, HttpError> {
    let mut reader = BufReader::new(Timed { stream, deadline: accepted + limits.head_timeout, heard });
    let mut head_len = 0;
    let mut line = String::new();
    let mut read_line = |reader: &mut BufReader<Timed>, line: &mut String| -> Result<(), HttpError> {
        line.clear();
        let n = reader
            .take((MAX_HEAD - head_len.min(MAX_HEAD)) as u64 + 1)
            .read_line(line)
            .map_err(|e| HttpError::reading("the request's headers", &e, limits.head_timeout))?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(HttpError::new(431, format!("headers longer than {MAX_HEAD} bytes")));
        }
        if n == 0 {
            return Err(HttpError::bad("the request ended before its headers did"));
        }
        Ok(())
    };
    read_line(&mut reader, &mut line)?;
    let mut words = line.split_whitespace();
    let method = words.next().unwrap_or("");
    if !method.eq_ignore_ascii_case("POST") {
        return Err(HttpError::new(405, format!("`{method}`: GGP messages are POSTed")));
    }
    if !(words.next().is_some() && words.next().is_some_and(|v| v.starts_with("HTTP/1.")) && words.next().is_none()) {
        return Err(HttpError::bad(format!("`{}` is not an HTTP/1 request line", line.trim_end())));
    }
    let mut length = None;
    loop {
        read_line(&mut reader, &mut line)?;
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(HttpError::bad(format!("`{header}` is not a header")));
        };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(HttpError::new(411, "a GGP message is sent with a Content-Length, not a Transfer-Encoding"));
        }
        if name.eq_ignore_ascii_case("content-length") {
            let parsed = content_length(value, limits.max_body)?;
            if length.is_some_and(|l| l != parsed) {
                return Err(HttpError::bad("two different Content-Lengths"));
            }
            length = Some(parsed);
        }
    }
    let Some(length) = length else {
        return Err(HttpError::new(411, "a GGP message needs a Content-Length"));
    };
    let reserved = if length > SMALL_BODY {
        let refused = || HttpError::new(503, format!("a body of {length} bytes while other large ones are read"));
        Some(bodies.reserve(length).ok_or_else(refused)?)
    } else {
        None
    };
    reader.get_mut().deadline = accepted + limits.request_timeout;
    let mut body = Vec::with_capacity(length);
    (&mut reader)
        .take(length as u64)
        .read_to_end(&mut body)
        .map_err(|e| HttpError::reading("the request's body", &e, limits.request_timeout))?;
    if body.len() < length {
        return Err(HttpError::bad(format!("the body ended after {} of its {length} bytes", body.len())));
    }
    let text = String::from_utf8(body).map_err(|_| HttpError::bad("the body is not UTF-8"))?;
    Ok(Body { text, _reserved: reserved })
}

/// The length `value` gives: digits only, at most `max_body` (413 past it,
/// however many digits).
fn content_length(value: &str, max_body: usize) -> Result<usize, HttpError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HttpError::bad(format!("bad Content-Length `{value}`")));
    }
    match value.parse::<usize>() {
        Ok(length) if length <= max_body => Ok(length),
        _ => Err(HttpError::new(413, format!("a body of {value} bytes; at most {max_body}"))),
    }
}

/// Writes a reply with `status` and `body` and flushes it; errors (a client
/// that went away or does not read) are the client's loss and are ignored.
pub fn write_reply(mut stream: &TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let reply = format!(
        "HTTP/1.0 {status} {reason}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let _ = stream.write_all(reply.as_bytes());
    let _ = stream.flush();
}

/// Writes the reply to a refused request. Its text is cut to a few hundred
/// bytes: errors quote the request, which may be megabytes long.
pub fn write_error(stream: &TcpStream, e: &HttpError) {
    const MAX_TEXT: usize = 300;
    let mut end = e.message.len().min(MAX_TEXT);
    while !e.message.is_char_boundary(end) {
        end -= 1;
    }
    let text = if end < e.message.len() { format!("{}…", &e.message[..end]) } else { e.message.clone() };
    write_reply(stream, e.status, &text);
}

/// Answers a connection over the bound with 503 without waiting: the reply
/// fits in the socket's buffer, and a client that filled it gets nothing.
pub fn refuse(stream: &TcpStream) {
    if stream.set_nonblocking(true).is_ok() {
        write_reply(stream, 503, "too many connections; try again");
    }
}

/// Ends a connection whose request was refused before it was read in full:
/// our side is closed, then what the client still sends is read and dropped
/// for a moment ([`LINGER`], at most [`LINGER_BYTES`]). Closing a socket with
/// unread bytes resets the connection, which can destroy the reply before
/// the client has read it; the client that goes on sending past that is
/// reset anyway.
pub fn close_after_refusal(stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let timed = Timed { stream, deadline: Instant::now() + LINGER, heard: &AtomicBool::new(true) };
    let _ = io::copy(&mut timed.take(LINGER_BYTES), &mut io::sink());
}
