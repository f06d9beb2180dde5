(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (inv x y) false)))
(check-sat)
