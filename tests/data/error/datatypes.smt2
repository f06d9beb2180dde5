(set-logic HORN)
(declare-datatypes ((Pair 2)) ((par (A B) ((mk-pair (fst A) (snd B))))))
(declare-fun inv (Int) Bool)
(check-sat)
