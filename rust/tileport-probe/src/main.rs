//! `tileport-probe [--target sm_90] [--tile N] [--bytecode FILE] [--run N]`
//!
//! Compiles a vector-add kernel with the `cutile` crate's compile-only API (no GPU, no driver) and prints its
//! Tile IR text. `tileport doctor` runs it to prove that the pinned crate built and that its compiler works;
//! with `--bytecode` it also writes the serialized Tile IR bytecode, which `tileirdisasm` can read.
//!
//! With `--run N` (GPU hosts) it instead launches the kernel through cutile's runtime (JIT via tileiras, driver
//! loaded with dlopen) on N pseudo-random elements, into a NaN-poisoned output, and checks every element.

use cutile::api;
use cutile::compile_api::KernelCompiler;
use cutile::prelude::*;
use std::process::ExitCode;
use std::sync::Arc;

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
    run: Option<usize>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        target: "sm_90".into(),
        tile: 1024,
        bytecode: None,
        run: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--target" => args.target = value()?,
            "--tile" => args.tile = value()?.parse().map_err(|e| format!("--tile: {e}"))?,
            "--bytecode" => args.bytecode = Some(value()?),
            "--run" => args.run = Some(value()?.parse().map_err(|e| format!("--run: {e}"))?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

/// Deterministic, non-trivial inputs (never zeros): a 32-bit LCG mapped to [-1, 1).
fn pseudo_random(n: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect()
}

fn run_on_gpu(n: usize, tile: usize) -> Result<(), String> {
    let a = pseudo_random(n, 1);
    let b = pseudo_random(n, 2);
    let blocks = n.div_ceil(tile) as u32;
    let (_a, _b, c) = probe_module::vector_add(
        api::copy_host_vec_to_device(&Arc::new(a.clone())),
        api::copy_host_vec_to_device(&Arc::new(b.clone())),
        api::full(f32::NAN, &[n]).partition([tile]),
    )
    .generics(vec![tile.to_string()])
    .grid((blocks, 1, 1))
    .sync()
    .map_err(|e| format!("launch failed: {e:?}"))?;
    let got: Vec<f32> = c
        .unpartition()
        .to_host_vec()
        .sync()
        .map_err(|e| format!("copy back failed: {e:?}"))?;
    let wrong: Vec<usize> = (0..n).filter(|&i| got[i] != a[i] + b[i]).collect();
    if let Some(&first) = wrong.first() {
        return Err(format!(
            "{} of {n} elements wrong (first: c[{first}] = {}, expected {})",
            wrong.len(),
            got[first],
            a[first] + b[first]
        ));
    }
    println!("ok: vector_add ran on the GPU through cutile, n={n} tile={tile} grid={blocks}, all elements exact");
    Ok(())
}

fn run(args: Args) -> Result<(), String> {
    if let Some(n) = args.run {
        return run_on_gpu(n, args.tile as usize);
    }
    let artifacts = KernelCompiler::new(
        probe_module::__module_ast_self,
        "probe_module",
        "vector_add",
    )
    .generics(vec![args.tile.to_string()])
    .strides(&[("a", &[1]), ("b", &[1]), ("c", &[1])])
    .target(&args.target)
    .compile()
    .map_err(|e| format!("cutile failed to compile the probe kernel: {e}"))?;
    print!("{}", artifacts.ir_text());
    if let Some(path) = args.bytecode {
        let bytes = artifacts
            .bytecode()
            .map_err(|e| format!("bytecode serialization failed: {e}"))?;
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    // cutile runs tileiras with this process's environment, and tileiras loads libnvvm from $CUDA_HOME when it is
    // set (GPU images point it at an older toolkit; tileiras then exits 5). Drop it before any thread starts.
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        std::env::remove_var(var);
    }
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
