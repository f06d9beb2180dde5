; Fibonacci with two recursive calls (a non-linear clause) never returns a negative number.
; Inductive invariant: fib(n, r) := (>= r 0).
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (fib 0 0))
(assert (fib 1 1))
(assert (forall ((n Int) (a Int) (b Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((n Int) (r Int)) (=> (and (fib n r) (< r 0)) false)))
(check-sat)
