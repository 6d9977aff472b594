//! blockprint when things go wrong around it: a batch killed part way ([`crash`]), the printed key
//! remaking cases numbered past 9 999 ([`key`]), and malformed content of every kind ([`malformed`]).

mod crash;
mod key;
mod malformed;
