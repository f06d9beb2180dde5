; app(a, b, c): c is a followed by b. len(l, n): l has n elements. The length of an append is
; the sum of the lengths: a fact about sizes, not shapes.
; Invariant: app(a, b, c) := |c| = |a| + |b|; len(l, n) := n = |l|
;            (|l|: the size of l, the number of `cons` along its tails).
(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun app (L L L) Bool)
(declare-fun len (L Int) Bool)
(assert (forall ((b L)) (app nil b b)))
(assert (forall ((h Int) (a L) (b L) (c L))
  (=> (app a b c) (app (cons h a) b (cons h c)))))
(assert (len nil 0))
(assert (forall ((h Int) (t L) (n Int))
  (=> (len t n) (len (cons h t) (+ n 1)))))
(assert (forall ((a L) (b L) (c L) (x Int) (y Int) (z Int))
  (=> (and (app a b c) (len a x) (len b y) (len c z) (not (= z (+ x y)))) false)))
(check-sat)
