// embed_migrations! does not notice new or edited migrations by itself.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    println!("cargo:rerun-if-changed=migrations_postgres");
}
