; A counter that steps by 2 from 1 until it passes 9; the bad state x = 9 is reached after 4
; steps (1, 3, 5, 7, 9).
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 1) (inv x))))
(assert (forall ((x Int) (x1 Int)) (=> (and (inv x) (< x 10) (= x1 (+ x 2))) (inv x1))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 9)) false)))
(check-sat)
