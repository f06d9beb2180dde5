(set-logic HORN)
(declare-datatypes ((Pair 0)) (((mk-pair (fst Int) (snd Int)))))
(declare-fun inv (Int) Bool)
(check-sat)
