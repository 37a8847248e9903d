// The one integration-test target: public and hidden tests as modules.
#[path = "public.rs"]
mod public;
#[path = "hidden.rs"]
mod hidden;
