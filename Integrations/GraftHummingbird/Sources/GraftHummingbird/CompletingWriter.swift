import Graft
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A response body writer that runs the request's completion step before the body's end.
///
/// A streamed body ends with `finish(_:)`: the scope's services commit just before it, after the
/// body's last byte. When they fail, the failure is logged and thrown, and the end is never
/// written, so the client sees the response cut off instead of complete.
struct CompletingWriter: ResponseBodyWriter {
    private var base: any ResponseBodyWriter
    private let lease: RequestScopeLease
    private let logger: Logger

    init(_ base: any ResponseBodyWriter, lease: RequestScopeLease, logger: Logger) {
        self.base = base
        self.lease = lease
        self.logger = logger
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await base.write(buffer)
    }

    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        try await base.write(contentsOf: buffers)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        do {
            try await lease.complete()
        } catch {
            logger.error("\(RequestLogging.message(error))")
            throw error
        }
        try await base.finish(trailingHeaders)
    }
}
