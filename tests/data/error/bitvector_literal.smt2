(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x #x0F) (inv x))))
(check-sat)
