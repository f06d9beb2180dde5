(declare-rel r (Int))
(declare-var x Int)
(declare-var x Int)
(query r)
