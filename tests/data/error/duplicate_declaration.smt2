(set-logic HORN)
(declare-fun inv (Int) Bool)
(declare-fun inv (Int Int) Bool)
(check-sat)
