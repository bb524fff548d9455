//! tileport's operator library: the cuTile Rust ports of the operators (generated, proven IR-equivalent to their
//! cuTile Python originals), exported one C symbol per operator for the Python bindings, and callable from Rust
//! through the `ports` modules directly.

pub mod abi;
pub mod direct;
pub mod ffi;
pub mod ports;
pub mod rt;
