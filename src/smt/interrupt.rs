//! Interrupting the Z3 work of another thread: a thread registers its (thread-local) Z3
//! context, and any thread holding the [`Interrupt`] handle can stop the check running there,
//! which then answers `unknown`. This is how a parallel portfolio stops the engines that lost.
//!
//! Must not: outlive the registering thread's context. The [`Registered`] guard, dropped on
//! that thread before it ends, takes the context back under the same lock `interrupt` holds.

use std::sync::{Arc, Mutex};

/// A raw Z3 context pointer, sent to other threads only inside the lock below.
struct RawContext(z3_sys::Z3_context);

// SAFETY: the pointer is only used for `Z3_interrupt`, which Z3 documents as callable from
// another thread, and only while the owning thread keeps the context registered (see
// `Registered`).
unsafe impl Send for RawContext {}

/// A handle that interrupts the Z3 work of the thread that made it (see [`Interrupt::here`]).
#[derive(Clone)]
pub struct Interrupt(Arc<Mutex<Option<RawContext>>>);

/// Keeps this thread's Z3 context interruptible; dropping it (on this thread: the guard cannot
/// be sent elsewhere) ends that.
pub struct Registered(
    Arc<Mutex<Option<RawContext>>>,
    std::marker::PhantomData<*const ()>,
);

impl Interrupt {
    /// Registers the calling thread's Z3 context: the handle interrupts the checks run on this
    /// thread until the guard is dropped.
    pub fn here() -> (Interrupt, Registered) {
        let ctx = z3::Context::thread_local().get_z3_context();
        let slot = Arc::new(Mutex::new(Some(RawContext(ctx))));
        (
            Interrupt(slot.clone()),
            Registered(slot, std::marker::PhantomData),
        )
    }

    /// Stops the check running on the registered thread, if any (it then answers `unknown`);
    /// the thread's later checks run as usual (the test below), so work that must stop for good
    /// also needs a flag it reads between checks (the deadline's [`Cancel`](crate::clock::Cancel)).
    /// Nothing once the thread has dropped its guard.
    pub fn interrupt(&self) {
        let guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(RawContext(ctx)) = &*guard {
            // SAFETY: the context is alive: its thread drops `Registered` (which takes it out
            // of the slot under this lock) before the context goes away.
            unsafe { z3_sys::Z3_interrupt(*ctx) };
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *guard = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Deadline;
    use crate::smt::{SatResult, Smt};
    use crate::term::{Sort, TermStore};
    use std::time::{Duration, Instant};

    #[test]
    fn a_check_without_deadline_stops_when_interrupted_from_another_thread() {
        let (tx, rx) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let (handle, _registered) = Interrupt::here();
            tx.send(handle).unwrap();
            // x^3 + y^3 = z^3 over positive integers: Z3 searches without end.
            let store = TermStore::new();
            let v = |n: &str| store.var(store.new_var(n, Sort::Int));
            let (x, y, z) = (v("x"), v("y"), v("z"));
            let cube = |t| store.mul(vec![t, t, t]);
            let one = store.int(1);
            let f = store.and([
                store.eq(store.add(vec![cube(x), cube(y)]), cube(z)),
                store.ge(x, one),
                store.ge(y, one),
                store.ge(z, one),
            ]);
            let mut smt = Smt::new(&store, Deadline::none());
            smt.assert(f);
            let started = Instant::now();
            let stopped = (smt.check(), started.elapsed());
            // The interrupt ends that check only: the thread's next check answers.
            let mut next = Smt::new(&store, Deadline::none());
            next.assert(store.ge(x, one));
            (stopped, next.check())
        });
        let handle = rx.recv().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        handle.interrupt();
        let ((answer, took), next) = worker.join().unwrap();
        assert_eq!(next, SatResult::Sat);
        assert!(matches!(answer, SatResult::Unknown(_)), "{answer:?}");
        // It ran until the interrupt (Z3 does not give up on its own), and stopped soon after.
        assert!(took >= Duration::from_millis(200), "{took:?}");
        assert!(took < Duration::from_secs(10), "{took:?}");
        // The thread is gone: interrupting now does nothing (and must not touch its context).
        handle.interrupt();
    }
}
