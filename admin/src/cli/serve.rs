//! `tengen serve`.

use clap::Args;
use std::path::Path;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: String,
}

pub fn run(db: &Path, a: ServeArgs) -> Result<(), String> {
    actix_web::rt::System::new()
        .block_on(crate::web::serve(db.to_path_buf(), a.bind))
        .map_err(|e| e.to_string())
}
