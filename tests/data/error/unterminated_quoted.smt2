(set-logic HORN)
(declare-fun |inv (Int) Bool)
(check-sat)
