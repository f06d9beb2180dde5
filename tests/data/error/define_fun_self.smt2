; A definition that uses itself: SMT-LIB definitions are not recursive (was a stack overflow).
(set-logic HORN)
(define-fun c () Int c)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x c) (P x))))
(check-sat)
