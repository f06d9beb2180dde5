(declare-rel r (Int))
(declare-var x Int)
(rule (r x))
