//! Evaluates one jsonnet file to JSON. Run by src/codegen/jsonnet-evaluate.mjs under its WASI
//! host: the arguments are the working directory, the file (as the user named it, so reports
//! name it so too), then the library directories in search order (the first that holds an
//! import wins). The JSON, compact, goes to stdout. On a failure rsjsonnet
//! prints its report (message, source excerpt, trace) to stderr and the exit status is 1.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Frames of a trace kept in a report (the innermost and the outermost): enough to find the
/// config line behind an error raised deep in a library.
const MAX_TRACE: usize = 10;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(cwd), Some(file)) = (args.next(), args.next()) else {
        eprintln!("usage: jsonnet-evaluator WORKING_DIR FILE [LIBRARY_DIR ...]");
        return ExitCode::from(2);
    };
    if let Err(error) = std::env::set_current_dir(&cwd) {
        eprintln!("error: cannot enter {cwd:?}: {error}");
        return ExitCode::FAILURE;
    }
    let arena = rsjsonnet_lang::arena::Arena::new();
    let mut session = rsjsonnet_front::Session::new(&arena);
    session.set_max_trace(MAX_TRACE);
    for dir in args {
        session.add_search_path(PathBuf::from(dir));
    }
    // Each step prints its own error before answering None.
    let json = session
        .load_real_file(Path::new(&file))
        .and_then(|thunk| session.eval_value(&thunk))
        .and_then(|value| session.manifest_json(&value, false));
    let Some(json) = json else {
        return ExitCode::FAILURE;
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(json.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: cannot write the result: {error}");
            ExitCode::FAILURE
        }
    }
}
