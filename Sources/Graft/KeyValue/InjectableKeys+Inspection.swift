/// Looking at the declared keys one at a time: for code that supplies the values, such as a
/// configuration binding that must know which type to ask its source for.
extension InjectableKeys {
    /// The type the key `name` declares, or `nil` when no key has that name.
    ///
    /// An `Optional` property reports its `Optional` type, a nested key its own leaf type.
    ///
    /// ```swift
    /// Settings.injectableKeys.valueType(forKey: "retries")  // Int.self
    /// ```
    ///
    /// - Parameter name: A full dotted name, as ``names`` lists it.
    /// - Returns: The declared type.
    public func valueType(forKey name: String) -> (any Any.Type)? {
        slotsByName[name].map { slots[$0].declaredType }
    }

    /// Checks that `value` converts to the type the key `name` declares, exactly as
    /// injection would convert it, without setting anything or looking at other keys.
    ///
    /// ```swift
    /// try Settings.injectableKeys.check(3, forKey: "retries")        // passes
    /// try Settings.injectableKeys.check("three", forKey: "retries")  // throws: Settings.retries expects Int, got String
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - name: A full dotted name, as ``names`` lists it.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/typeMismatch`` when the value does
    ///   not convert, or ``GraftError/Code/unknownKey`` when no key has that name; the message
    ///   is the one injection gives.
    public func check(_ value: any Sendable, forKey name: String) throws(GraftError) {
        let rootType = KeyValueInjection.typeName(Root.self)
        guard let index = slotsByName[name] else {
            throw .unknownInjectedKey(name, in: rootType, declared: names)
        }
        if case .failure(let failure) = slots[index].prepare(value) {
            throw .injectedTypeMismatch(name, in: rootType, failure: failure)
        }
    }
}
