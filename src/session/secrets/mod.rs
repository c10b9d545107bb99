//! What must not leave the person's screen in clear: values that look like
//! secrets by their shape, by the name they are kept under, or because
//! the session's program was handed them as secrets. The agent front ends,
//! the journal on disk and the DAP trace log all mask through here.

mod names;
mod shapes;
mod taint;

pub use names::is_secret_name;
pub use shapes::{harmless, mask};
pub use taint::Taint;

/// A piece of text with every secret in it masked: the values the session
/// was given as secrets, the credential shapes, values kept under secret
/// names, and string literals that look random enough to be keys.
pub fn text(s: &str, taint: &Taint) -> String {
    shapes::mask_all(&taint.mask(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn untainted(s: &str) -> String {
        text(s, &Taint::default())
    }

    #[test]
    fn secrets_by_value_flag_and_short_names() {
        let t = untainted("{'user': 'ann', 'pass': 'hunter2'}");
        assert!(!t.contains("hunter2"), "{t}");
        let t = untainted("pw = 'opensesame'");
        assert!(!t.contains("opensesame"), "{t}");
        let t = untainted("['app.py', '--token', 'tok123456']");
        assert!(!t.contains("tok123456"), "{t}");
        let t = untainted("--password=s3cr3tpass --verbose");
        assert!(!t.contains("s3cr3tpass") && t.contains("--verbose"), "{t}");
        let t = untainted("key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'");
        assert!(!t.contains("4eC39HqLyjWDarjtT1zdp7dc"), "{t}");
        // Random enough to be a key, under an innocent name.
        let t = untainted("x = 'Zx9qT2mLp8VwR4nK7bYc3HdJ'");
        assert!(!t.contains("Zx9qT2mLp8VwR4nK7bYc3HdJ"), "{t}");
        // Not keys: a digest, a uuid, a path, words.
        for keep in [
            "'da39a3ee5e6b4b0d3255bfef95601890afd80709'",
            "'123e4567-e89b-12d3-a456-426614174000'",
            "'/usr/lib/python3/dist-packages/Module1'",
            "'HelloWorldThisIsAnOrdinaryName'",
        ] {
            assert_eq!(untainted(keep), keep);
        }
    }

    #[test]
    fn a_secret_given_at_launch_is_masked_under_any_name() {
        let taint = Taint::of_launch(
            &[("API_KEY".into(), "live-abcdef-778899".into())],
            &["--password".into(), "Tr0ub4dor&3".into()],
        );
        let t = text("k = 'live-abcdef-778899'", &taint);
        assert!(!t.contains("live-abcdef-778899"), "{t}");
        let t = text("argv[2] = 'Tr0ub4dor&3'", &taint);
        assert!(!t.contains("Tr0ub4dor&3"), "{t}");
        // Another session's value is its own: not masked here.
        let t = untainted("k = 'live-abcdef-778899'");
        assert!(t.contains("live-abcdef-778899"), "{t}");
    }

    #[test]
    fn names_are_whole_words() {
        for n in [
            "password",
            "db_password",
            "apiKey",
            "API_KEY",
            "'token'",
            "self.auth",
            "private_key",
            "AccessKey",
            "cfg[\"api_key\"]",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in ["author", "tokens", "max_tokens", "keys", "passage", "key"] {
            assert!(!is_secret_name(n), "{n}");
        }
    }

    #[test]
    fn credential_shapes_are_masked_with_their_length() {
        let aws = "AKIAIOSFODNN7EXAMPLE";
        assert_eq!(untainted(&format!("'{aws}'")), "'<redacted: 20 chars>'");
        assert_eq!(mask("'hunter2'"), "<redacted: 7 chars>");
        let gh = format!("ghp_{}", "a".repeat(36));
        assert_eq!(untainted(&gh), "<redacted: 40 chars>");
        assert_eq!(
            untainted("'Bearer abcdefghijkl'"),
            "'Bearer <redacted: 12 chars>'"
        );
        assert_eq!(
            untainted("postgres://bob:hunter2@db/x"),
            "postgres://bob:<redacted: 7 chars>@db/x"
        );
        let pem = "-----BEGIN RSA PRIVATE KEY-----\\nMIIE\\n-----END RSA PRIVATE KEY-----";
        assert_eq!(untainted(pem), mask(pem));
        assert_eq!(
            untainted("eyJhbGc.eyJzdWIi.sig_1234"),
            "<redacted: 25 chars>"
        );
        assert_eq!(untainted("'hello world'"), "'hello world'");
    }

    #[test]
    fn keyed_values_inside_reprs() {
        assert_eq!(
            untainted("{'user': 'bob', 'token': 'abc123'}"),
            "{'user': 'bob', 'token': <redacted: 6 chars>}"
        );
        assert_eq!(
            untainted("Login(password='x y', n=3)"),
            "Login(password=<redacted: 3 chars>, n=3)"
        );
        assert_eq!(
            untainted("{'auth': ('bob', 'pw')}"),
            "{'auth': <redacted: 13 chars>}"
        );
        assert_eq!(untainted("if password == other:"), "if password == other:");
        assert_eq!(untainted("{'token': None}"), "{'token': None}");
    }
}
