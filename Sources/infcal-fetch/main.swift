import Foundation
import InfCalRemote
import InfCalTerminal

// infcal-fetch: infcal's network helper. It reads `fetch` requests on standard input and
// answers each with `progress` messages and one `done` (see FetchMessage), and `put` and
// `delete` requests (one event written to a CalDAV server) with one `done`, until standard
// input ends, or until a transfer it could not stop ends it (its last `done` then says
// `ending yes`). Not meant to be run by hand.

Platform.ignoreBrokenPipe()
let output = FetchOutput()
var reader = FetchMessageReader()
reading: while true {
    switch Platform.readAvailable(0, limit: 65_536) {
    case .bytes(let bytes):
        for message in reader.feed(bytes) {
            if message.verb == "put" || message.verb == "delete" {
                output.send(FetchMessage("done", FetchOutput.outcome(of: message)))
            } else if let job = FetchJob(message) {
                output.send(FetchMessage("done", FetchOutput.outcome(of: job, output: output)))
            } else {
                output.send(FetchMessage("done", [("name", message["name"] ?? ""), ("result", "failed"), ("reason", "bad request")]))
            }
            // A transfer that could not be stopped (a body expanding past the limit) runs on
            // in URLSession's thread: the process ends rather than wait for it.
            if Exchange.isStuck { Platform.exitAtOnce(0) }
        }
    case .interrupted:
        continue
    case .endOfFile, .failed:
        break reading
    }
}
