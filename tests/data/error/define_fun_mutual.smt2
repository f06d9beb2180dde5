; Two definitions that use each other: the first cannot see the second (was a stack overflow).
(set-logic HORN)
(define-fun f ((x Int)) Int (g x))
(define-fun g ((x Int)) Int (f x))
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x (f 1)) (P x))))
(check-sat)
