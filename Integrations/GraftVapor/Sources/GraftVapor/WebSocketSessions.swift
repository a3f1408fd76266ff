import NIOWebSocket
import Synchronization
import Vapor

/// The application's open WebSocket sessions: each one's socket and the task that runs it, so
/// that the application's shutdown can close every socket with a close frame and wait for each
/// session's scope to close.
final class WebSocketSessions: Sendable {
    private struct Session: Sendable {
        let socket: WebSocket
        let task: Task<Void, Never>
    }

    private struct State: Sendable {
        var nextID = 0
        var isClosing = false
        var open: [Int: Session] = [:]
    }

    private let state = Mutex(State())

    /// Runs `session` for `socket` in a task of its own, tracked until it ends; returns `false`
    /// (and runs nothing) once the application shuts down.
    func start(_ socket: WebSocket, _ session: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard !state.isClosing else { return false }
            let id = state.nextID
            state.nextID += 1
            // Made with the lock held, so the task's own removal (which takes the lock) comes
            // after its insertion.
            let task = Task {
                await session()
                self.state.withLock { _ = $0.open.removeValue(forKey: id) }
            }
            state.open[id] = Session(socket: socket, task: task)
            return true
        }
    }

    /// How many sessions are open.
    var count: Int { state.withLock { $0.open.count } }

    /// Refuses new sessions and sends every open socket a close frame (`1001 going away`);
    /// returns the sessions' tasks, which end once their sockets have closed.
    func closeAll() -> [Task<Void, Never>] {
        let sessions = state.withLock { state in
            state.isClosing = true
            return Array(state.open.values)
        }
        for session in sessions {
            session.socket.close(code: .goingAway, promise: nil)
        }
        return sessions.map(\.task)
    }
}

extension Application {
    enum WebSocketSessionsKey: StorageKey {
        typealias Value = WebSocketSessions
    }
}
