(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (inv (+ x true)) false)))
(check-sat)
