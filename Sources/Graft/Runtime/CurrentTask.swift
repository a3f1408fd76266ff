/// What the engine asks of the task it runs in.
enum CurrentTask {
    /// Whether the caller runs inside a task. The unsafe handle the standard library lends for
    /// the question never leaves the closure that receives it.
    static var exists: Bool {
        withUnsafeCurrentTask { $0 != nil }
    }
}
