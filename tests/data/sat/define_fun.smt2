; define-fun macros: a constant, a function and a Boolean property.
; x := 0; while (x < bound) x := step(x); assert ok(x). Invariant: 0 <= x <= 11.
(set-logic HORN)
(define-fun bound () Int 10)
(define-fun step ((x Int)) Int (+ x 2))
(define-fun ok ((x Int)) Bool (<= x 12))
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (< x bound)) (inv (step x)))))
(assert (forall ((x Int)) (=> (and (inv x) (not (ok x))) false)))
(check-sat)
