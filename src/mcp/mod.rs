pub async fn serve_stdio(_ws: crate::session::validate::Workspace) -> u8 {
    0
}
