import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// Finding and reading the config file of a run: the part of the run that touches it.
enum ConfigRun {
    /// The config file of `raw`'s run and what it says; an empty file's contents when there
    /// is none (no file where infcal looks by default, or `--no-config`).
    /// - throws: `ConfigError` for a named file that is missing, a file that cannot be read,
    ///   is no regular file, or says something wrong.
    static func load(_ raw: RawOptions, environment: RunEnvironment) throws(ConfigError) -> (file: String, config: ConfigFile) {
        guard let (path, explicit) = ConfigFile.location(raw, environment: environment) else { return ("", ConfigFile()) }
        let bytes: [UInt8]
        switch Platform.readBounded(path: path, limit: ConfigParser.sizeLimit, regularOnly: true) {
        case .success(let read):
            bytes = read
        case .failure(let error):
            if error.isMissing, !explicit { return (path, ConfigFile()) }
            let reason = error.isDirectory ? "is a directory, not a config file"
                : error.isTooLarge ? "is not a config file (larger than \(ConfigParser.sizeLimit / 1024) KiB)"
                : error.isNotRegular ? "is not a regular file" : "cannot be read: " + Platform.describe(errno: error.code)
            throw ConfigError(file: path, line: nil, message: reason)
        }
        let home = environment.variable("HOME")
        return (path, try ConfigParser.parse(bytes, file: path, home: home, directory: ConfigFile.directory(of: path)))
    }
}
