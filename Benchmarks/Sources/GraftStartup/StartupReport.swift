/// What one `graft-startup` run prints: one line of JSON, so scripts read it without parsing
/// prose.
struct StartupReport {
    let library: StartupLibrary
    let services: Int
    let elapsed: Duration
    /// Heap in use with the container alive, minus heap in use before registering.
    let heapBytes: Int

    var json: String {
        let nanoseconds = Int((elapsed / .nanoseconds(1)).rounded())
        let bytesPerRegistration = services > 0 ? Double(heapBytes) / Double(services) : 0
        let perRegistration = (bytesPerRegistration * 10).rounded() / 10
        return """
            {"library":"\(library.rawValue)","services":\(services),"nanoseconds":\(nanoseconds),\
            "heapBytes":\(heapBytes),"bytesPerRegistration":\(perRegistration)}
            """
    }
}
