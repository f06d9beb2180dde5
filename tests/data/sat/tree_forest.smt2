; Mutually recursive trees and forests; size(t, n) counts the nodes of a tree.
; Every tree has at least one node. Invariant: size(t, n) := n >= 1, fsize(f, n) := n >= 0.
(set-logic HORN)
(declare-datatypes ((Tree 0) (Forest 0))
  (((node (label Int) (kids Forest)))
   ((empty) (grow (first Tree) (rest Forest)))))
(declare-fun size (Tree Int) Bool)
(declare-fun fsize (Forest Int) Bool)
(assert (fsize empty 0))
(assert (forall ((t Tree) (f Forest) (n Int) (m Int))
  (=> (and (size t n) (fsize f m)) (fsize (grow t f) (+ n m)))))
(assert (forall ((f Forest) (x Int) (m Int)) (=> (fsize f m) (size (node x f) (+ m 1)))))
(assert (forall ((t Tree) (n Int)) (=> (and (size t n) ((_ is node) t) (< n 1)) false)))
(check-sat)
