//! The API token every route but health needs: `MNEMO_TOKEN`, else the one in `<data>/.env`,
//! else a new one appended there (the file made or left mode 0600: it then holds a secret).
//! An empty token in `.env` is refused rather than served: it would refuse every request.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// Random bytes of a generated token (printed as hex).
const TOKEN_BYTES: usize = 16;
/// The variable that names the token, in the environment and in `.env`.
const VAR: &str = "MNEMO_TOKEN";

/// The token to serve with (see the module documentation).
pub fn token(data: &Path) -> Result<String> {
    // An empty variable is taken as unset, as shells make it easy to leave one.
    if let Some(t) = std::env::var(VAR).ok().filter(|t| !t.trim().is_empty()) {
        return checked(&t, "the MNEMO_TOKEN environment variable");
    }
    let env = data.join(".env");
    match std::fs::read_to_string(&env) {
        Ok(text) => {
            let prefix = format!("{VAR}=");
            if let Some(t) = text.lines().find_map(|l| l.trim().strip_prefix(&prefix)) {
                return checked(t, &format!("the {VAR}= line of {}", env.display()));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", env.display())),
    }
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no OS randomness for a token: {e}"))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut f = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&env)
            .with_context(|| format!("writing {}", env.display()))?
    };
    // `mode` applies to a new file only; one the user made may be readable by others.
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("making {} private (mode 0600)", env.display()))?;
    writeln!(f, "{VAR}={token}").with_context(|| format!("writing {}", env.display()))?;
    Ok(token)
}

/// A token as found in `place`, trimmed; empty is an error that says where it came from.
fn checked(token: &str, place: &str) -> Result<String> {
    let token = token.trim();
    if token.is_empty() {
        bail!("{place} is empty: set a token there, or remove it to have one generated");
    }
    if token.chars().any(|c| c.is_control() || c == ' ') {
        bail!("{place} holds spaces or control characters: a Bearer token cannot carry them");
    }
    Ok(token.to_string())
}
