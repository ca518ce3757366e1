//! Just enough HTTP for the GGP protocol: one `POST` per connection, read
//! to its `Content-Length`, and one reply, `HTTP/1.0` with `Content-Type:
//! text/acl` and a `Content-Length`, then the connection closes.
//!
//! Game servers (GGP-Base's above all) send nothing else, so a general HTTP
//! crate would add a dependency and a thread pool for features never used;
//! these hundred lines are std only. Anything else that arrives (a `GET`,
//! a missing length, headers or a body past the limits, a stalled client)
//! is an [`HttpError`] that the server answers with a 4xx status: a bad
//! request never stops the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Headers are at most this long in all.
const MAX_HEAD: usize = 64 << 10;

/// How long a client may take to send its request.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

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
}

/// Reads one request from `stream` and returns its body; bodies longer than
/// `max_body` bytes are refused.
pub fn read_request(stream: &TcpStream, max_body: usize) -> Result<String, HttpError> {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let mut reader = BufReader::new(stream);
    let mut head_len = 0;
    let mut line = String::new();
    let mut read_line = |line: &mut String| -> Result<(), HttpError> {
        line.clear();
        let n = (&mut reader)
            .take((MAX_HEAD - head_len.min(MAX_HEAD)) as u64 + 1)
            .read_line(line)
            .map_err(|e| HttpError::bad(format!("the request could not be read: {e}")))?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(HttpError { status: 431, message: format!("headers longer than {MAX_HEAD} bytes") });
        }
        if n == 0 {
            return Err(HttpError::bad("the request ended before its headers did"));
        }
        Ok(())
    };
    read_line(&mut line)?;
    let method = line.split_whitespace().next().unwrap_or("").to_owned();
    let mut length = None;
    loop {
        read_line(&mut line)?;
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let value = value.trim();
            length = Some(value.parse::<usize>().map_err(|_| HttpError::bad(format!("bad Content-Length `{value}`")))?);
        }
    }
    if !method.eq_ignore_ascii_case("POST") {
        return Err(HttpError { status: 405, message: format!("`{method}`: GGP messages are POSTed") });
    }
    let Some(length) = length else {
        return Err(HttpError { status: 411, message: "a GGP message needs a Content-Length".to_owned() });
    };
    if length > max_body {
        return Err(HttpError { status: 413, message: format!("a body of {length} bytes; at most {max_body}") });
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| HttpError::bad(format!("the body could not be read: {e}")))?;
    String::from_utf8(body).map_err(|_| HttpError::bad("the body is not UTF-8"))
}

/// Writes a reply with `status` and `body` and flushes it; errors (a client
/// that went away) are the client's loss and are ignored.
pub fn write_reply(mut stream: &TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    };
    let reply = format!(
        "HTTP/1.0 {status} {reason}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
    let _ = stream.flush();
}
