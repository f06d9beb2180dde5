//! The POSIX-threads calls of the subset, resolved as statements of their own
//! ([`IStmtKind::Thread`], or plain assignments where C's meaning is one): `pthread_create`
//! (attributes and argument null), `pthread_join`, `pthread_exit`, `pthread_mutex_lock`,
//! `pthread_mutex_unlock` and `pthread_mutex_init` (a mutex is an `int` global, 0 when free,
//! 1 when held), `pthread_mutex_destroy` (nothing), `__VERIFIER_atomic_begin/end`, and the
//! condition variables' `pthread_cond_wait`, `_signal`, `_broadcast`, `_init`, `_destroy`
//! (below). Handles, mutexes and condition variables must be named variables (`&t`, `&m`),
//! thread functions named functions: there is no pointer analysis behind them. The typedef
//! names the header `<pthread.h>` would declare are known without it ([`builtin_typedefs`]).
//!
//! A condition variable is an `int` global counting the signals sent on it. POSIX lets a
//! signal wake every waiter (it wakes "at least one") but no waiter that was not yet blocked,
//! and the wait release the mutex and block in one step; so `pthread_cond_wait(&c, &m)` is
//! `atomic { t = c; m = 0; } [c != t]; pthread_mutex_lock(&m)` with `t` a fresh local (the
//! guard blocks until a later signal, as a lock's guard does) and both `_signal` and
//! `_broadcast` are `c++`. No spurious wakeups: an `unsafe` answer is an execution POSIX
//! allows without them, and a proof covers the executions with them only where the program
//! waits in a loop, as POSIX asks it to.
//!
//! Must not: give these operations a meaning (the concurrent encoding in `threads/` and the
//! interpreter's scheduler do), or accept a form it cannot resolve exactly: everything else of
//! `pthread.h` (thread attributes, `pthread_cond_timedwait`, `pthread_self`, ...) is
//! `unsupported`.

use super::heap_lower::{bin, mk};
use super::{unsupported, Resolver};
use crate::frontend::c::ast::{BinOp, Expr, ExprKind, Span, UnOp};
use crate::frontend::c::error::CError;
use crate::frontend::c::ir::{IExpr, IExprKind, IStmt, IStmtKind, ThreadOp, VarRef};
use crate::frontend::c::types::CType;
use std::collections::HashMap;

/// The types of `<pthread.h>` the subset knows (handles and mutexes are integers: a thread's
/// number, a mutex's state), unless the program declares them itself.
pub(super) fn builtin_typedefs() -> HashMap<String, CType> {
    crate::frontend::c::tokenize::PTHREAD_TYPES
        .iter()
        .map(|n| ((*n).to_owned(), CType::INT))
        .collect()
}

/// Whether `e` is a null pointer constant as the tasks write it: `0`, `NULL` (the lexer makes
/// it `0`), or either cast to a pointer.
fn is_null(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(s) => s.trim_end_matches(['u', 'U', 'l', 'L']) == "0",
        ExprKind::Cast(_, a) => is_null(a),
        _ => false,
    }
}

impl Resolver {
    /// A call statement of a thread built-in (`name` is not a variable), or `None` for any
    /// other name.
    pub(super) fn thread_stmt(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Result<Option<IStmtKind>, CError> {
        let arity = |n: usize| -> Result<(), CError> {
            if args.len() == n {
                Ok(())
            } else {
                Err(unsupported(
                    span,
                    &format!("`{name}` with {} arguments", args.len()),
                ))
            }
        };
        let op = match name {
            "pthread_create" => {
                arity(4)?;
                let handle = self.address_of(&args[0], "a thread handle")?;
                if !is_null(&args[1]) {
                    return Err(unsupported(args[1].span, "thread attributes"));
                }
                if !is_null(&args[3]) {
                    return Err(unsupported(
                        args[3].span,
                        "thread arguments other than a null pointer",
                    ));
                }
                let func = self.thread_function(&args[2])?;
                ThreadOp::Create { handle, func }
            }
            "pthread_join" => {
                arity(2)?;
                let ExprKind::Ident(h) = &args[0].kind else {
                    return Err(unsupported(args[0].span, "a thread handle not a variable"));
                };
                let (v, _) = self.variable(h, args[0].span)?;
                if !is_null(&args[1]) {
                    return Err(unsupported(args[1].span, "thread return values"));
                }
                ThreadOp::Join(v)
            }
            // The value is never read (joins ignore it).
            "pthread_exit" => {
                arity(1)?;
                ThreadOp::Exit
            }
            "pthread_mutex_lock" => {
                arity(1)?;
                ThreadOp::Lock(self.mutex(&args[0])?)
            }
            "pthread_mutex_unlock" => {
                arity(1)?;
                let m = self.mutex(&args[0])?;
                return Ok(Some(assign(m, 0, span)));
            }
            "pthread_mutex_init" => {
                arity(2)?;
                let m = self.mutex(&args[0])?;
                if !is_null(&args[1]) {
                    return Err(unsupported(args[1].span, "mutex attributes"));
                }
                return Ok(Some(assign(m, 0, span)));
            }
            "pthread_mutex_destroy" => {
                arity(1)?;
                self.mutex(&args[0])?;
                return Ok(Some(IStmtKind::Block(vec![])));
            }
            "pthread_cond_init" => {
                arity(2)?;
                let c = self.global_sync(&args[0], "a condition variable")?;
                if !is_null(&args[1]) {
                    return Err(unsupported(args[1].span, "condition variable attributes"));
                }
                return Ok(Some(assign(c, 0, span)));
            }
            "pthread_cond_destroy" => {
                arity(1)?;
                self.global_sync(&args[0], "a condition variable")?;
                return Ok(Some(IStmtKind::Block(vec![])));
            }
            "pthread_cond_signal" | "pthread_cond_broadcast" => {
                arity(1)?;
                let c = self.global_sync(&args[0], "a condition variable")?;
                let signal = mk(IExprKind::PostIncDec(c, true), CType::INT, span);
                return Ok(Some(IStmtKind::Expr(signal)));
            }
            "pthread_cond_wait" => {
                arity(2)?;
                let c = self.global_sync(&args[0], "a condition variable")?;
                let m = self.mutex(&args[1])?;
                return Ok(Some(self.cond_wait(c, m, span)));
            }
            "__VERIFIER_atomic_begin" => {
                arity(0)?;
                ThreadOp::AtomicBegin
            }
            "__VERIFIER_atomic_end" => {
                arity(0)?;
                ThreadOp::AtomicEnd
            }
            _ if name.starts_with("pthread_") => {
                return Err(unsupported(span, &format!("`{name}`")));
            }
            _ => return Ok(None),
        };
        Ok(Some(IStmtKind::Thread(op)))
    }

    /// The variable of `&x`.
    fn address_of(&self, e: &Expr, what: &str) -> Result<VarRef, CError> {
        if let ExprKind::Unary(UnOp::AddrOf, inner) = &e.kind {
            if let ExprKind::Ident(n) = &inner.kind {
                let (v, _) = self.variable(n, inner.span)?;
                if !self.info(v).is_array() {
                    return Ok(v);
                }
            }
        }
        Err(unsupported(
            e.span,
            &format!("{what} other than the address of a scalar variable"),
        ))
    }

    /// The mutex of `&m`: a global (a mutex other threads cannot see would be pointless, and
    /// one reached through a pointer would need the points-to sets).
    fn mutex(&self, e: &Expr) -> Result<VarRef, CError> {
        self.global_sync(e, "a mutex")
    }

    /// The variable of `&x` for a synchronisation object (`what`: "a mutex", ...): a global, as
    /// for [`Resolver::mutex`].
    fn global_sync(&self, e: &Expr, what: &str) -> Result<VarRef, CError> {
        let v = self.address_of(e, what)?;
        match v {
            VarRef::Global(_) => Ok(v),
            VarRef::Local(_) => Err(unsupported(e.span, &format!("{what} that is not a global"))),
        }
    }

    /// `pthread_cond_wait(&c, &m)`: `atomic { t = c; m = 0; } [c != t]; lock(m)` (see the
    /// module header).
    fn cond_wait(&mut self, c: VarRef, m: VarRef, span: Span) -> IStmtKind {
        let t = self.temp(CType::INT, span);
        let var = |v: VarRef| mk(IExprKind::Var(v), CType::INT, span);
        let stmt = |kind: IStmtKind| IStmt { kind, span };
        let seen = mk(IExprKind::Assign(t, Box::new(var(c))), CType::INT, span);
        let signalled = bin(IExprKind::Cmp, BinOp::Ne, var(c), var(t), CType::INT);
        IStmtKind::Block(vec![
            stmt(IStmtKind::Thread(ThreadOp::AtomicBegin)),
            stmt(IStmtKind::Expr(seen)),
            stmt(assign(m, 0, span)),
            stmt(IStmtKind::Thread(ThreadOp::AtomicEnd)),
            stmt(IStmtKind::Assume(signalled)),
            stmt(IStmtKind::Thread(ThreadOp::Lock(m))),
        ])
    }

    /// The function named as a thread's start: `void *f(void *)` or with no parameter.
    fn thread_function(&self, e: &Expr) -> Result<usize, CError> {
        let name = match &e.kind {
            ExprKind::Ident(n) => n,
            ExprKind::Unary(UnOp::AddrOf, inner) => match &inner.kind {
                ExprKind::Ident(n) => n,
                _ => return Err(unsupported(e.span, "thread functions given by expressions")),
            },
            _ => return Err(unsupported(e.span, "thread functions given by expressions")),
        };
        if self.lookup(name).is_some() {
            return Err(unsupported(e.span, "function pointers"));
        }
        let sig = self.sigs.get(name.as_str()).ok_or_else(|| {
            CError::new(
                crate::frontend::c::error::CErrorKind::Name,
                e.span,
                format!("undeclared thread function `{name}`"),
            )
        })?;
        let Some(index) = sig.index else {
            return Err(unsupported(
                e.span,
                &format!("thread function `{name}`, which is declared but not defined"),
            ));
        };
        if sig.params.len() > 1 || name == "main" {
            return Err(unsupported(
                e.span,
                &format!("thread function `{name}` (expected `void *{name}(void *)`)"),
            ));
        }
        Ok(index)
    }
}

/// `m = value;` as a statement.
fn assign(m: VarRef, value: i64, span: Span) -> IStmtKind {
    let c = IExpr {
        kind: IExprKind::Const(value.into()),
        ty: CType::INT,
        span,
    };
    IStmtKind::Expr(IExpr {
        kind: IExprKind::Assign(m, Box::new(c)),
        ty: CType::INT,
        span,
    })
}
