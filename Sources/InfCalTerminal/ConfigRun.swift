import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// Reading the config file of a run: the part of resolving it that touches the file.
enum ConfigRun {
    /// The bytes of the config file at `path` (a regular file of at most `limit` bytes), or
    /// why there are none.
    static func read(_ path: String, limit: Int) -> ConfigRead {
        switch Platform.readBounded(path: path, limit: limit, regularOnly: true) {
        case .success(let bytes):
            return .bytes(bytes)
        case .failure(let error):
            let reason = error.isDirectory ? "is a directory, not a config file"
                : error.isTooLarge ? "is not a config file (larger than \(limit / 1024) KiB)"
                : error.isNotRegular ? "is not a regular file" : "cannot be read: " + Platform.describe(errno: error.code)
            return .failed(reason: reason, isMissing: error.isMissing)
        }
    }
}
