; A counter that starts at 0 and steps by 2 never reaches 7: safe (sat), with the invariant
; "x is even and non-negative".
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 2))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))
(check-sat)
