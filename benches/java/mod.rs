//! The Java section of the latency benchmark: the floor-versus-pairdbg
//! comparison on the Maven demo through pairdbg's JDI server over stdio.
//! Run alone with `cargo bench --profile dev --bench latency -- java` after
//! `pairdbg adapters install java`.

use pairdbg::adapters::{self, LaunchSpec};

use crate::common::root;
use crate::raw::Demo;
use crate::{Figures, demo_figures};

pub async fn run() {
    let adapter = adapters::for_language("java").expect("java");
    if let Err(e) = adapter.probe(&LaunchSpec::for_workspace(&root())).await {
        println!("\nJava section skipped: {e}");
        return;
    }
    // Each launch runs `mvn -q compile`: fewer rounds than the others.
    demo_figures(
        &Demo::java(adapter),
        &Figures {
            name: "jdi",
            title: "the Maven demo (assets/demo/java), a step in main's loop",
            extra: "into `order`",
            rounds: 6,
            steps: 8,
        },
    )
    .await;
}
