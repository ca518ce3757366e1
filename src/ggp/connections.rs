//! The bound on connections: at most [`MAX_CONNECTIONS`] are given a thread
//! at once, and a connection over it never gets one.
//!
//! A bound alone would let anyone starve the game server: a few dozen
//! connections that send nothing would hold every slot, and the next PLAY
//! would be refused. So when every slot is taken, a connection still
//! waiting for its request is dropped to make room for the newcomer (its
//! socket shut down, so its blocked read ends at once): the oldest of those
//! that have sent nothing at all, else the oldest. A game server sends its
//! request with the connection; once its first bytes are read it is dropped
//! only after every silent connection, and once its request is read it is
//! answered on a slot that is never dropped. To push it out before that, an
//! attacker would have to open [`MAX_CONNECTIONS`] connections between the
//! game server's connect and its first bytes (a flood, not idle
//! connections: those are also dropped by the header timeout). Only when
//! every slot is answering a request already read (nothing an idle or slow
//! client can do) is the newcomer refused, with 503 from the accepting
//! thread.

use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Connections with a thread at once. A game server sends one request at a
/// time to a player, so this leaves room for several servers' INFO pings and
/// costs 64 small stacks at most.
pub const MAX_CONNECTIONS: usize = 64;

/// How long the accepting thread waits for a dropped connection's thread to
/// end; it ends as soon as its read does, in microseconds.
const DROP_WAIT: Duration = Duration::from_millis(100);

/// The connections being served.
pub struct Connections {
    max: usize,
    slots: Mutex<Slots>,
    freed: Condvar,
}

struct Slots {
    live: Vec<Slot>,
    next_id: u64,
}

struct Slot {
    id: u64,
    accepted: Instant,
    /// A handle on the connection while its request is still being read,
    /// to shut it down if it must make room; `None` once it is answered.
    reading: Option<TcpStream>,
    /// Whether any byte of the request has been read.
    heard: Arc<AtomicBool>,
}

/// A connection's slot, given back when dropped.
pub struct Ticket {
    connections: Arc<Connections>,
    id: u64,
    heard: Arc<AtomicBool>,
}

impl Connections {
    pub fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections { max, slots: Mutex::new(Slots { live: Vec::new(), next_id: 0 }), freed: Condvar::new() })
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for `stream`, accepted at `accepted`, making room by dropping
    /// the connection that has waited longest for its request, silent ones
    /// first; `None` if every slot is answering a request.
    pub fn admit(self: &Arc<Self>, stream: &TcpStream, accepted: Instant) -> Option<Ticket> {
        let mut slots = self.lock();
        if slots.live.len() >= self.max {
            let victim = slots
                .live
                .iter_mut()
                .filter(|s| s.reading.is_some())
                .min_by_key(|s| (s.heard.load(Ordering::Acquire), s.accepted))?;
            if let Some(reading) = victim.reading.take() {
                let _ = reading.shutdown(Shutdown::Both);
            }
            slots = self
                .freed
                .wait_timeout_while(slots, DROP_WAIT, |s| s.live.len() >= self.max)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            if slots.live.len() >= self.max {
                return None;
            }
        }
        let id = slots.next_id;
        slots.next_id += 1;
        let heard = Arc::new(AtomicBool::new(false));
        slots.live.push(Slot { id, accepted, reading: stream.try_clone().ok(), heard: heard.clone() });
        Some(Ticket { connections: self.clone(), id, heard })
    }
}

impl Ticket {
    /// Set when the connection's first bytes are read.
    pub fn heard(&self) -> &AtomicBool {
        &self.heard
    }

    /// The request has been read: the connection is no longer dropped to
    /// make room.
    pub fn answering(&self) {
        let mut slots = self.connections.lock();
        if let Some(slot) = slots.live.iter_mut().find(|s| s.id == self.id) {
            slot.reading = None;
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut slots = self.connections.lock();
        slots.live.retain(|s| s.id != self.id);
        drop(slots);
        self.connections.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    /// A connected pair: our end (as accepted) and the client's.
    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        (listener.accept().unwrap().0, client)
    }

    #[test]
    fn the_oldest_reader_makes_room_and_answered_ones_never_do() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let connections = Connections::new(2);
        let (first, _c1) = pair(&listener);
        let (second, _c2) = pair(&listener);
        let t0 = Instant::now();
        let first_ticket = connections.admit(&first, t0).expect("a slot");
        let second_ticket = connections.admit(&second, t0 + Duration::from_millis(1)).expect("a slot");
        second_ticket.answering();
        // The first connection's thread: its read ends when it is dropped,
        // and the slot is given back.
        let reader = std::thread::spawn(move || {
            let mut buf = [0; 1];
            let n = (&first).read(&mut buf).unwrap_or(0);
            drop(first_ticket);
            n
        });
        let (third, _c3) = pair(&listener);
        let third_ticket = connections.admit(&third, Instant::now()).expect("room made");
        assert_eq!(reader.join().unwrap(), 0, "the oldest reader was shut down");
        // Both slots taken, one answering and one reading: the reader goes.
        let (fourth, _c4) = pair(&listener);
        let dropper = std::thread::spawn(move || drop(third_ticket));
        assert!(connections.admit(&fourth, Instant::now()).is_some());
        dropper.join().unwrap();
        // Silent connections make room first, however young.
        let quiet = Connections::new(2);
        let (older, _c7) = pair(&listener);
        let (silent, _c8) = pair(&listener);
        let older_ticket = quiet.admit(&older, Instant::now()).unwrap();
        older_ticket.heard().store(true, Ordering::Release);
        let silent_ticket = quiet.admit(&silent, Instant::now()).unwrap();
        let dropper = std::thread::spawn(move || {
            let mut buf = [0; 1];
            let n = (&silent).read(&mut buf).unwrap_or(0);
            drop(silent_ticket);
            n
        });
        let (newcomer, _c9) = pair(&listener);
        let _newcomer_ticket = quiet.admit(&newcomer, Instant::now()).expect("room made");
        assert_eq!(dropper.join().unwrap(), 0, "the silent one was shut down");
        assert!(older_ticket.connections.lock().live.iter().any(|s| s.id == older_ticket.id), "kept");
        // All answering: refused.
        let (fifth, _c5) = pair(&listener);
        let full = Connections::new(1);
        let answered = full.admit(&fifth, Instant::now()).unwrap();
        answered.answering();
        let (sixth, _c6) = pair(&listener);
        assert!(full.admit(&sixth, Instant::now()).is_none());
    }
}
