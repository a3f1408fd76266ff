/// Observers: what a built container tells of its work.
extension ContainerBuilder {
    /// Adds an observer that the built container tells of each instance it makes, each factory
    /// that throws and each disposal.
    ///
    /// ```swift
    /// let recorder = StartupRecorder()
    /// builder.addObserver(recorder)
    /// let container = try builder.build()
    /// ```
    ///
    /// Observers are told in the order they were added. A container built without any pays
    /// nothing for observation.
    ///
    /// - Parameter observer: The observer; the container keeps it for its whole life.
    public mutating func addObserver(_ observer: some ContainerObserver) {
        observers.append(observer)
    }
}
