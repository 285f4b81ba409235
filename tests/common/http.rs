//! A deliberately small HTTP/1.1 client over a plain TCP stream: one
//! request per connection (`Connection: close`), every header under the
//! test's control (a wrong Host or Origin is the point of some tests), and
//! the raw body kept as text so tests can search it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A request as bytes: `extra` headers are added as given; Host is
/// `host` unless `extra` names one.
pub fn request_bytes(
    method: &str,
    path: &str,
    host: &str,
    extra: &[(&str, &str)],
    body: &[u8],
) -> Vec<u8> {
    request_bytes_on(method, path, host, extra, body, "close")
}

/// [`request_bytes`] with the `Connection` header given: `close`, or
/// `keep-alive` for [`KeepAlive`].
fn request_bytes_on(
    method: &str,
    path: &str,
    host: &str,
    extra: &[(&str, &str)],
    body: &[u8],
    connection: &str,
) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: {connection}\r\n");
    if !extra.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {host}\r\n"));
    }
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        if !extra
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            head.push_str("Content-Type: application/json\r\n");
        }
    }
    head.push_str("\r\n");
    let mut v = head.into_bytes();
    v.extend_from_slice(body);
    v
}

/// Parses a whole response read until the server closed the connection.
pub fn parse(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A blocking client for one server.
pub struct Client {
    pub host: String,
}

impl Client {
    pub fn new(port: u16) -> Client {
        Client {
            host: format!("127.0.0.1:{port}"),
        }
    }

    pub fn send(&self, method: &str, path: &str, extra: &[(&str, &str)], body: &[u8]) -> Response {
        let mut s = TcpStream::connect(&self.host).expect("the server accepts");
        s.set_read_timeout(Some(Duration::from_secs(120))).ok();
        s.write_all(&request_bytes(method, path, &self.host, extra, body))
            .expect("the request is sent");
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("the response is read");
        parse(&raw)
    }

    /// Sends bytes exactly as given (a request the helpers above would not
    /// write, such as a chunked body).
    pub fn send_raw(&self, request: &[u8]) -> Response {
        let mut s = TcpStream::connect(&self.host).expect("the server accepts");
        s.set_read_timeout(Some(Duration::from_secs(120))).ok();
        // The server may answer and close before reading everything.
        let _ = s.write_all(request);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        parse(&raw)
    }

    pub fn get(&self, path: &str, seat: Option<&str>) -> Response {
        match seat {
            Some(t) => self.send("GET", path, &[("X-Seat-Token", t)], b""),
            None => self.send("GET", path, &[], b""),
        }
    }

    pub fn post(&self, path: &str, seat: Option<&str>, body: &serde_json::Value) -> Response {
        let b = body.to_string();
        match seat {
            Some(t) => self.send("POST", path, &[("X-Seat-Token", t)], b.as_bytes()),
            None => self.send("POST", path, &[], b.as_bytes()),
        }
    }
}

/// One persistent connection, as a browser tab keeps one to the studio
/// (HTTP/1.1 keep-alive): requests one after another on the same stream,
/// each answer framed by its `Content-Length`. A connection the server
/// closed (idle, or after an error) is opened again for the next request.
pub struct KeepAlive {
    host: String,
    stream: Option<tokio::io::BufReader<tokio::net::TcpStream>>,
    /// Connections opened so far (1 when the server kept the first alive).
    pub connections: u32,
}

impl KeepAlive {
    pub fn new(port: u16) -> KeepAlive {
        KeepAlive {
            host: format!("127.0.0.1:{port}"),
            stream: None,
            connections: 0,
        }
    }

    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        extra: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Response> {
        let request = request_bytes_on(method, path, &self.host, extra, body, "keep-alive");
        // A stream the server closed between two requests fails at once:
        // the request is sent again once, on a new connection.
        match self.exchange(&request).await {
            Ok(r) => Ok(r),
            Err(_) if self.stream.take().is_some() => self.exchange(&request).await,
            Err(e) => Err(e),
        }
    }

    async fn exchange(&mut self, request: &[u8]) -> std::io::Result<Response> {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
        if self.stream.is_none() {
            let s = tokio::net::TcpStream::connect(&self.host).await?;
            s.set_nodelay(true)?;
            self.stream = Some(tokio::io::BufReader::new(s));
            self.connections += 1;
        }
        let s = self.stream.as_mut().expect("connected above");
        s.get_mut().write_all(request).await?;
        let mut head = Vec::new();
        loop {
            let before = head.len();
            s.read_until(b'\n', &mut head).await?;
            if head.len() == before {
                self.stream = None;
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if head.ends_with(b"\r\n\r\n") {
                break;
            }
        }
        let text = String::from_utf8_lossy(&head).into_owned();
        let length = text
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse::<usize>().ok())
            .ok_or_else(|| {
                std::io::Error::other(format!("an answer without Content-Length: {text:?}"))
            })?;
        let mut body = vec![0; length];
        s.read_exact(&mut body).await?;
        let closes = text.lines().any(|l| {
            l.split_once(':').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("connection")
                    && v.trim().eq_ignore_ascii_case("close")
            })
        });
        if closes {
            self.stream = None;
        }
        head.extend_from_slice(&body);
        Ok(parse(&head))
    }
}
