import Foundation
import InfCalRemote
import InfCalTerminal

// infcal-fetch: infcal's network helper. It reads `fetch` requests on standard input and
// answers each with `progress` messages and one `done` (see FetchMessage), and `put` and
// `delete` requests (one event written to a CalDAV server) with one `done`, until standard
// input ends. Not meant to be run by hand.

Platform.ignoreBrokenPipe()
let output = FetchOutput()
var reader = FetchMessageReader()
reading: while true {
    switch Platform.readAvailable(0, limit: 65_536) {
    case .bytes(let bytes):
        for message in reader.feed(bytes) {
            if message.verb == "put" || message.verb == "delete" {
                output.send(FetchMessage("done", FetchOutput.outcome(of: message)))
                continue
            }
            guard let job = FetchJob(message) else {
                output.send(FetchMessage("done", [("name", message["name"] ?? ""), ("result", "failed"), ("reason", "bad request")]))
                continue
            }
            output.send(FetchMessage("done", FetchOutput.outcome(of: job, output: output)))
        }
    case .interrupted:
        continue
    case .endOfFile, .failed:
        break reading
    }
}
