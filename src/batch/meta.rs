//! Where and how a run was made, recorded with its results so that a table in a paper can say
//! it: the solver's version (with its commit and Z3's), the date, the host, its CPU model and
//! cores, and the command line. Read from the machine when the batch starts.
//!
//! Must not: fail a batch (what cannot be read is left empty).

use serde::{Deserialize, Serialize};

/// The circumstances of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunMeta {
    /// The solver's version: `0.1.0 (commit 1a2b3c4d5e, Z3 5.3.3.0)` for Hornbeam.
    pub version: String,
    /// When the run started, UTC (`YYYY-MM-DDTHH:MM:SSZ`).
    pub date: String,
    /// The machine's host name.
    pub host: String,
    /// Its CPU model (`/proc/cpuinfo`).
    pub cpu: String,
    /// The cores it offers this process.
    pub cores: usize,
    /// The command line that made the run.
    pub command: Vec<String>,
}

impl RunMeta {
    /// This machine, now, for a run made by `command` with the solver `version`.
    pub fn here(version: String, command: Vec<String>) -> Self {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find_map(|l| l.strip_prefix("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or_else(String::new, |(_, m)| m.trim().to_owned());
        RunMeta {
            version,
            date: crate::clock::iso8601_utc(std::time::SystemTime::now()),
            host: read("/proc/sys/kernel/hostname").trim().to_owned(),
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            command,
        }
    }

    /// `key: value` lines (the CSV file's leading `# ` comments).
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!("version: {}", self.version),
            format!("date: {}", self.date),
            format!("host: {}", self.host),
            format!("cpu: {} ({} cores)", self.cpu, self.cores),
            format!("command: {}", self.command.join(" ")),
        ]
    }
}

impl RunMeta {
    /// The metadata [`RunMeta::lines`] wrote, from the lines themselves (`None` without a
    /// `version` line).
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let mut m = RunMeta::default();
        for line in lines {
            let Some((key, value)) = line.split_once(": ") else {
                continue;
            };
            match key {
                "version" => m.version = value.to_owned(),
                "date" => m.date = value.to_owned(),
                "host" => m.host = value.to_owned(),
                "cpu" => match value.rsplit_once(" (") {
                    Some((cpu, cores)) => {
                        m.cpu = cpu.to_owned();
                        m.cores = cores.trim_end_matches(" cores)").parse().unwrap_or(0);
                    }
                    None => m.cpu = value.to_owned(),
                },
                "command" => m.command = value.split(' ').map(str::to_owned).collect(),
                _ => {}
            }
        }
        (!m.version.is_empty()).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machine_is_described() {
        let m = RunMeta::here("v".into(), vec!["hornbeam".into(), "batch".into()]);
        assert!(m.cores >= 1);
        assert!(m.date.ends_with('Z') && m.date.len() == 20, "{}", m.date);
        assert_eq!(m.lines()[4], "command: hornbeam batch");
        let lines = m.lines();
        assert_eq!(
            RunMeta::from_lines(lines.iter().map(String::as_str)),
            Some(m)
        );
    }
}
