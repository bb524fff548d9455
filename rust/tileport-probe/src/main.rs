//! `tileport-probe [--target sm_90] [--tile N] [--bytecode FILE]`
//!
//! Compiles a vector-add kernel with the `cutile` crate's compile-only API (no GPU, no driver) and prints its
//! Tile IR text. `tileport doctor` runs it to prove that the pinned crate built and that its compiler works;
//! with `--bytecode` it also writes the serialized Tile IR bytecode, which `tileirdisasm` can read.

use cutile::compile_api::KernelCompiler;
use std::process::ExitCode;

#[cutile::module]
mod probe_module {
    use cutile::core::*;

    /// c[i] = a[i] + b[i], one S-long tile per block.
    #[cutile::entry()]
    fn vector_add<const S: [i32; 1]>(
        a: &Tensor<f32, { [-1] }>,
        b: &Tensor<f32, { [-1] }>,
        c: &mut Tensor<f32, S>,
    ) {
        let x = load_tile_like(a, c);
        let y = load_tile_like(b, c);
        c.store(x + y);
    }
}

struct Args {
    target: String,
    tile: u32,
    bytecode: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { target: "sm_90".into(), tile: 1024, bytecode: None };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--target" => args.target = value()?,
            "--tile" => args.tile = value()?.parse().map_err(|e| format!("--tile: {e}"))?,
            "--bytecode" => args.bytecode = Some(value()?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

fn run(args: Args) -> Result<(), String> {
    let artifacts = KernelCompiler::new(probe_module::__module_ast_self, "probe_module", "vector_add")
        .generics(vec![args.tile.to_string()])
        .strides(&[("a", &[1]), ("b", &[1]), ("c", &[1])])
        .target(&args.target)
        .compile()
        .map_err(|e| format!("cutile failed to compile the probe kernel: {e}"))?;
    print!("{}", artifacts.ir_text());
    if let Some(path) = args.bytecode {
        let bytes = artifacts.bytecode().map_err(|e| format!("bytecode serialization failed: {e}"))?;
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    // The cutile compiler recurses deeply over the kernel AST; give it the stack its own tests use.
    let result = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| parse_args().and_then(run))
        .expect("spawn compiler thread")
        .join()
        .unwrap_or_else(|_| Err("the cutile compiler panicked".into()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("tileport-probe: {msg}");
            ExitCode::FAILURE
        }
    }
}
