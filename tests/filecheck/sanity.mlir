// Proves the lit + filecheck setup works; real tests live beside it.
// RUN: echo ok | filecheck %s
// CHECK: ok
