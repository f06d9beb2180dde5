; Two copies of one expression evaluated side by side, as grammar encodings of synthesis
; problems do on several inputs at once: N holds pairs of equal naturals, B pairs of equal
; Booleans (comparisons of N's pairs, negated, conjoined), E the pairs an `ite` picks.
; Invariant: N(a, b) := a = b ∧ a >= 0; B(p, q) := p = q; E(u, v) := u = v.
(set-logic HORN)
(declare-fun N (Int Int) Bool)
(declare-fun B (Bool Bool) Bool)
(declare-fun E (Int Int) Bool)
(assert (N 0 0))
(assert (N 1 1))
(assert (forall ((a Int) (b Int) (c Int) (d Int))
  (=> (and (N a b) (N c d)) (N (+ a c) (+ b d)))))
(assert (forall ((a Int) (b Int) (c Int) (d Int))
  (=> (and (N a b) (N c d)) (B (<= a c) (<= b d)))))
(assert (forall ((p Bool) (q Bool))
  (=> (B p q) (B (not p) (not q)))))
(assert (forall ((p Bool) (q Bool) (r Bool) (s Bool))
  (=> (and (B p q) (B r s)) (B (and p r) (and q s)))))
(assert (forall ((p Bool) (q Bool) (a Int) (b Int) (c Int) (d Int))
  (=> (and (B p q) (N a b) (N c d)) (E (ite p a c) (ite q b d)))))
(assert (forall ((u Int) (v Int))
  (=> (and (E u v) (not (= u v))) false)))
(check-sat)
