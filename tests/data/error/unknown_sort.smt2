(set-logic HORN)
(declare-fun inv (Int Nat) Bool)
(check-sat)
